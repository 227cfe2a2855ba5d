"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { ApplicationDetails } from "@/components/staff/applications-details";
import { APPLICATION_STATE_LABELS } from "@/components/staff/applications-state-badge";
import { ApplicationsTable, openButtonId } from "@/components/staff/applications-table";
import { FormAlert } from "@/components/staff/form-alert";
import { inputClass, labelClass, linkClass, secondaryButtonClass } from "@/components/staff/styles";
import { useApplication, useApplications } from "@/components/staff/use-applications";
import { APPLICATION_STATES, type ApplicationState } from "@/lib/applications/schemas";
import { ApiClientError } from "@/lib/site/api-error";
import { describeError } from "@/lib/site/api-client";

/** What the URL says the inbox shows: the filters, and the application opened. */
interface InboxView {
  state?: ApplicationState;
  petId?: number;
  application?: number;
}

const positiveId = (value: string | null | undefined) =>
  value && /^[1-9][0-9]{0,15}$/.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : undefined;

function parseView(params: { get(name: string): string | null } | null): InboxView {
  const state = params?.get("state");
  return {
    state: APPLICATION_STATES.find((s) => s === state),
    petId: positiveId(params?.get("petId")),
    application: positiveId(params?.get("application")),
  };
}

function viewHref(view: InboxView): string {
  const params = new URLSearchParams();
  if (view.state) params.set("state", view.state);
  if (view.petId) params.set("petId", String(view.petId));
  if (view.application) params.set("application", String(view.application));
  const query = params.toString();
  return `/staff/applications${query ? `?${query}` : ""}`;
}

/**
 * Staff's inbox. The URL is the state (?state=, ?petId=, ?application=):
 * each change pushes a history entry with window.history.pushState, which
 * Next keeps in step with useSearchParams without a server round trip, so
 * a filtered view or an open application can be linked to and Back works.
 * The list pages on with X-Next-Before; the opened application shows below
 * it, with the steps its state allows.
 */
export function ApplicationsInbox() {
  const searchParams = useSearchParams();
  const view = useMemo(() => parseView(searchParams), [searchParams]);
  const list = useApplications({ state: view.state, petId: view.petId });
  const rows = useMemo(() => list.data?.pages.flatMap((page) => page.applications) ?? [], [list.data]);
  const fromList = rows.find((a) => a.id === view.application);
  const opened = useApplication(view.application, fromList);

  const navigate = useCallback((next: InboxView) => {
    const href = viewHref(next);
    if (href !== `${window.location.pathname}${window.location.search}`) window.history.pushState(null, "", href);
  }, []);

  // Focus follows the reader: into the application they open, back to its
  // row's button when they close it.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusNext = useRef<{ kind: "details" } | { kind: "row"; id: number } | null>(null);
  useEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    if (target.kind === "details" && headingRef.current) {
      focusNext.current = null;
      headingRef.current.focus();
      headingRef.current.scrollIntoView({ block: "start" });
    } else if (target.kind === "row") {
      focusNext.current = null;
      document.getElementById(openButtonId(target.id))?.focus();
    }
  });

  const sessionGone = list.error instanceof ApiClientError && (list.error.status === 401 || list.error.status === 403);
  const petName = view.petId ? (rows[0]?.petName ?? (opened.data?.petId === view.petId ? opened.data.petName : undefined)) : undefined;
  const filtered = view.state !== undefined || view.petId !== undefined;

  let summary = "";
  if (list.isPending) summary = "Loading applications…";
  else if (list.isError && !list.data) summary = "";
  else if (rows.length === 0) summary = "";
  else summary = `Showing ${rows.length} application${rows.length === 1 ? "" : "s"}, newest first${list.hasNextPage ? "; there are more" : ""}.`;

  return (
    <div className="space-y-6">
      <section aria-labelledby="applications-list-heading" className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="applications-list-heading" className="text-lg font-semibold">
            Inbox
          </h2>
          <div className="flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor="applications-state" className={labelClass}>
                State
              </label>
              <select
                id="applications-state"
                value={view.state ?? ""}
                onChange={(event) => navigate({ ...view, state: APPLICATION_STATES.find((s) => s === event.target.value) })}
                className={inputClass(false)}
              >
                <option value="">All states</option>
                {APPLICATION_STATES.map((state) => (
                  <option key={state} value={state}>
                    {APPLICATION_STATE_LABELS[state]}
                  </option>
                ))}
              </select>
            </div>
            <button type="button" onClick={() => void list.refetch()} disabled={list.isFetching} className={secondaryButtonClass}>
              {list.isFetching && !list.isFetchingNextPage ? "Refreshing…" : "Refresh"}
            </button>
          </div>
        </div>

        {view.petId ? (
          <p className="flex flex-wrap items-center gap-2 rounded-md border border-sky-300 bg-sky-50 px-4 py-2 text-sm text-sky-950">
            <span>
              Only the applications for{" "}
              <a href={`/pets/${view.petId}`} className={linkClass}>
                {petName ?? `animal #${view.petId}`}
              </a>
              .
            </span>
            <button type="button" onClick={() => navigate({ ...view, petId: undefined })} className={secondaryButtonClass}>
              Show every animal
            </button>
          </p>
        ) : null}

        <p role="status" className="text-sm text-stone-700 empty:hidden">
          {summary}
        </p>

        {list.isPending ? null : list.isError && !list.data ? (
          <FormAlert>
            Could not load the applications. {describeError(list.error)}{" "}
            {sessionGone ? (
              <a href="/staff/sign-in?next=/staff/applications" className={linkClass}>
                Sign in as staff
              </a>
            ) : (
              <button type="button" onClick={() => void list.refetch()} className={secondaryButtonClass}>
                Try again
              </button>
            )}
          </FormAlert>
        ) : rows.length === 0 ? (
          <div className="rounded-lg border border-dashed border-stone-300 bg-white p-6 text-stone-700">
            {filtered ? (
              <p>
                No {view.state ? `${APPLICATION_STATE_LABELS[view.state].toLowerCase()} ` : ""}applications
                {view.petId ? ` for ${petName ?? `animal #${view.petId}`}` : ""}.{" "}
                <button type="button" onClick={() => navigate({ application: view.application })} className={linkClass}>
                  Show all applications
                </button>
              </p>
            ) : (
              <p>No applications yet. When someone applies to adopt an animal, their application appears here.</p>
            )}
          </div>
        ) : (
          <>
            <ApplicationsTable
              applications={rows}
              selectedId={view.application}
              onOpen={(application) => {
                focusNext.current = { kind: "details" };
                navigate({ ...view, application: application.id });
              }}
            />
            {list.isFetchNextPageError ? <FormAlert>Could not load more applications. {describeError(list.error)}</FormAlert> : null}
            {list.hasNextPage ? (
              <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage} className={secondaryButtonClass}>
                {list.isFetchingNextPage ? "Loading more…" : "Load more"}
              </button>
            ) : null}
          </>
        )}
      </section>

      {view.application ? (
        opened.data ? (
          <ApplicationDetails
            application={opened.data}
            headingRef={headingRef}
            onClose={() => {
              focusNext.current = { kind: "row", id: view.application! };
              navigate({ ...view, application: undefined });
            }}
            onOnlyThisAnimal={view.petId === opened.data.petId ? undefined : () => navigate({ ...view, petId: opened.data!.petId })}
          />
        ) : opened.isError ? (
          <FormAlert>
            Could not load application #{view.application}. {describeError(opened.error)}{" "}
            <button type="button" onClick={() => navigate({ ...view, application: undefined })} className={secondaryButtonClass}>
              Close
            </button>
          </FormAlert>
        ) : (
          <p role="status" className="text-stone-700">
            Loading the application…
          </p>
        )
      ) : null}
    </div>
  );
}
