"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { FormAlert } from "@/components/staff/form-alert";
import { dangerButtonClass, labelClass, panelClass, primaryButtonClass, secondaryButtonClass } from "@/components/staff/styles";
import type { FosterApplicant } from "@/lib/fosters/applications-schemas";
import { callApi, linkCursor } from "@/lib/site/api-client-core";
import { describeError } from "@/lib/site/api-client";

// Staff's inbox of foster applicants: what each sent, approve (an active
// foster, emailed their private page) or decline (with a message). With
// ?person=<id> (the link in a note's email), that foster's page as staff see
// it: their notes, "ready for another", and sending their link again.

const KEY = ["staff", "foster-applications"] as const;

export function FosterApplicationsInbox({ organizationId }: { organizationId: number }) {
  const person = useSearchParams()?.get("person");
  const personId = person && /^[1-9][0-9]{0,15}$/.test(person) ? Number(person) : undefined;
  // A hundred at a time, newest first; the next hundred on request (the Link header's cursor).
  const list = useInfiniteQuery({
    queryKey: [...KEY, organizationId],
    queryFn: async ({ pageParam, signal }): Promise<{ applicants: FosterApplicant[]; next: string | undefined }> => {
      const res = await callApi((api) =>
        api.GET("/organizations/{organizationId}/foster-applications", {
          params: { path: { organizationId }, query: { limit: 100, ...(pageParam ? { cursor: pageParam } : {}) } },
          signal,
        }),
      );
      return { applicants: res.data, next: linkCursor(res.headers.get("link"), "next") };
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next,
    staleTime: 0,
  });
  const applicants = list.data?.pages.flatMap((page) => page.applicants);
  // A decided applicant leaves the list: what was done stays said here.
  const [done, setDone] = useState<string | null>(null);
  return (
    <div className="space-y-6">
      {personId ? <FosterPageForStaff organizationId={organizationId} personId={personId} /> : null}
      {done ? (
        <p role="status" className="rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-950">
          {done}
        </p>
      ) : null}
      {list.isPending ? <p role="status">Loading the applications…</p> : null}
      {list.error ? <FormAlert>{describeError(list.error)}</FormAlert> : null}
      {applicants && applicants.length === 0 ? <p className={panelClass}>No foster applications are waiting.</p> : null}
      {applicants && applicants.length > 0 ? (
        <ul className="space-y-4" aria-label="Foster applicants">
          {applicants.map((applicant) => (
            <Applicant key={applicant.applicationId} organizationId={organizationId} applicant={applicant} onDecided={setDone} />
          ))}
        </ul>
      ) : null}
      {list.hasNextPage ? (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage} className={`${secondaryButtonClass} min-h-11 px-4`}>
          {list.isFetchingNextPage ? "Loading more…" : "Show older applications"}
        </button>
      ) : null}
    </div>
  );
}

function Applicant({ organizationId, applicant, onDecided }: { organizationId: number; applicant: FosterApplicant; onDecided: (said: string) => void }) {
  const queryClient = useQueryClient();
  const [declining, setDeclining] = useState(false);
  const [message, setMessage] = useState("");
  const decide = useMutation({
    mutationFn: async (step: "approve" | "decline") => {
      const path = { organizationId, personId: applicant.id };
      return step === "approve"
        ? (await callApi((api) => api.POST("/organizations/{organizationId}/foster-applications/{personId}/approve", { params: { path } }))).data
        : (await callApi((api) => api.POST("/organizations/{organizationId}/foster-applications/{personId}/decline", { params: { path }, body: { message } })))
            .data;
    },
    onSuccess: (decided) => {
      const who = decided.name ?? `Person #${decided.id}`;
      onDecided(
        decided.decision === "approved"
          ? `Approved ${who}: an active foster now, emailed the link to their foster page.`
          : `Declined ${who}: they are told by email${message.trim() ? ", with your message" : ""}.`,
      );
      return queryClient.invalidateQueries({ queryKey: KEY });
    },
  });
  const a = applicant.address;
  const place = [a.street, a.city, a.region, a.postcode, a.country].filter(Boolean).join(", ");
  const id = `applicant-${applicant.id}`;
  return (
    <li className={`${panelClass} space-y-3`} aria-labelledby={id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold wrap-anywhere">
          {applicant.name ?? `Person #${applicant.id}`}
        </h2>
        <p className="text-sm text-stone-600">Applied {applicant.createdAt.slice(0, 16).replace("T", " ")} UTC</p>
      </div>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-semibold">Email</dt>
        <dd className="wrap-anywhere">{applicant.email}</dd>
        <dt className="font-semibold">Phone</dt>
        <dd>{applicant.phone ?? "—"}</dd>
        <dt className="font-semibold">Home</dt>
        <dd className="wrap-anywhere">{place || "—"}</dd>
        <dt className="font-semibold">Takes</dt>
        <dd>
          {applicant.capacity ?? "?"} at once; {applicant.species.length ? applicant.species.join(", ") : "any species"}
        </dd>
        <dt className="font-semibold">Language</dt>
        <dd>{applicant.locale === "es" ? "Spanish" : "English"}</dd>
      </dl>
      {applicant.message ? <p className="rounded-md bg-stone-50 px-3 py-2 whitespace-pre-line wrap-anywhere">{applicant.message}</p> : null}
      {decide.error ? <FormAlert>{describeError(decide.error)}</FormAlert> : null}
      {declining ? (
        <div className="space-y-2">
          <label htmlFor={`${id}-message`} className={labelClass}>
            Message to the applicant (optional, emailed to them)
          </label>
          <textarea
            id={`${id}-message`}
            rows={3}
            maxLength={1000}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            className="block w-full rounded-md border border-stone-400 px-3 py-2"
          />
          <div className="flex flex-wrap gap-2">
            <button type="button" disabled={decide.isPending} onClick={() => decide.mutate("decline")} className={dangerButtonClass}>
              Decline
            </button>
            <button type="button" onClick={() => setDeclining(false)} className={secondaryButtonClass}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <button type="button" disabled={decide.isPending} onClick={() => decide.mutate("approve")} className={primaryButtonClass}>
            Approve
          </button>
          <button type="button" onClick={() => setDeclining(true)} className={secondaryButtonClass}>
            Decline…
          </button>
        </div>
      )}
    </li>
  );
}

function FosterPageForStaff({ organizationId, personId }: { organizationId: number; personId: number }) {
  const path = { organizationId, personId };
  const page = useQuery({
    queryKey: ["staff", "foster-page", organizationId, personId],
    queryFn: async ({ signal }) =>
      (await callApi((api) => api.GET("/organizations/{organizationId}/people/{personId}/foster-page", { params: { path }, signal }))).data,
  });
  const send = useMutation({
    mutationFn: async () => (await callApi((api) => api.POST("/organizations/{organizationId}/people/{personId}/link", { params: { path } }))).data,
    onSuccess: () => void page.refetch(),
  });
  return (
    <section aria-labelledby="foster-page-heading" className={`${panelClass} space-y-3`}>
      <h2 id="foster-page-heading" className="text-lg font-semibold">
        Foster #{personId}: their page
      </h2>
      {page.isPending ? <p role="status">Loading…</p> : null}
      {page.error ? <FormAlert>{describeError(page.error)}</FormAlert> : null}
      {page.data ? (
        <>
          <p>
            {page.data.readyAt
              ? `Ready for another since ${page.data.readyAt.slice(0, 16).replace("T", " ")} UTC.`
              : "Has not said they are ready for another."}{" "}
            {page.data.link
              ? `Link sent ${page.data.link.sentAt.slice(0, 10)}, ${page.data.link.expired ? "expired" : `works until ${page.data.link.expiresAt.slice(0, 10)}`}.`
              : "No link sent yet."}
          </p>
          {page.data.notes.length === 0 ? (
            <p>No notes.</p>
          ) : (
            <ul className="space-y-2">
              {page.data.notes.map((note) => (
                <li key={note.id} className="rounded-md bg-stone-50 px-3 py-2">
                  <p className="text-sm text-stone-600">
                    About {note.petName} (#{note.petId}), {note.createdAt.slice(0, 16).replace("T", " ")} UTC
                  </p>
                  <p className="whitespace-pre-line wrap-anywhere">{note.text}</p>
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}
      {send.error ? <FormAlert>{describeError(send.error)}</FormAlert> : null}
      {send.data ? <p role="status">A new link is on its way (the old one no longer works).</p> : null}
      <button type="button" disabled={send.isPending} onClick={() => send.mutate()} className={secondaryButtonClass}>
        Send their foster page link
      </button>
    </section>
  );
}
