"use client";

import { useEffect } from "react";
import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiClientError } from "@/lib/site/api-error";
import { callApi, linkCursor } from "@/lib/site/api-client-core";
import type { ErrorBody } from "@/lib/core/errors";
import type { Import, ImportIssue, ImportSummary } from "@/lib/imports/schemas";

// The import page's calls: sending a file (multipart, so by fetch rather
// than the typed JSON client), following an import while it runs, its
// report a page at a time once it has finished, and the past imports (their
// status and counts only: a list of reports could weigh megabytes).

/** Report entries per page: a screenful or two; "Show more" reads the next. */
export const ISSUES_PAGE_SIZE = 100;

export const STAFF_IMPORTS_QUERY_KEY = ["staff", "imports"] as const;

export interface ImportRequest {
  file: File;
  dryRun: boolean;
  format?: string;
  mapping?: Record<string, string | string[] | Record<string, Record<string, string>>>;
  missing?: "keep" | "adopted";
}

export async function startImport(request: ImportRequest): Promise<Import> {
  const form = new FormData();
  form.append("file", request.file, request.file.name);
  form.append("dryRun", String(request.dryRun));
  if (request.format) form.append("format", request.format);
  if (request.mapping) form.append("mapping", JSON.stringify(request.mapping));
  if (request.missing) form.append("missing", request.missing);
  let res: Response;
  try {
    res = await fetch("/v1/imports", { method: "POST", body: form, headers: { Accept: "application/json" } });
  } catch {
    throw new ApiClientError(0, "network_error", "Could not reach the server. Check your connection and try again.");
  }
  const body: unknown = await res.json().catch(() => ({}));
  if (res.status === 202) return body as Import;
  const error = body as Partial<ErrorBody>;
  throw new ApiClientError(res.status, error.code ?? "unknown_error", error.message ?? `The server answered ${res.status}.`, error.details ?? []);
}

/** One import, polled every half second until it is done or failed; then the past imports are read again. */
export function useImport(id: number | null) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: [...STAFF_IMPORTS_QUERY_KEY, id],
    queryFn: (): Promise<Import> => fetchImport(id!),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && (query.state.data.status === "done" || query.state.data.status === "failed") ? false : 500),
    staleTime: 0,
  });
  const finished = query.data?.status === "done" || query.data?.status === "failed";
  useEffect(() => {
    // The list showed this import as queued or running: it ends there too.
    if (finished) void queryClient.invalidateQueries({ queryKey: STAFF_IMPORTS_QUERY_KEY, exact: true });
  }, [finished, queryClient]);
  return query;
}

export function usePastImports(enabled: boolean) {
  return useQuery({
    queryKey: STAFF_IMPORTS_QUERY_KEY,
    queryFn: async (): Promise<ImportSummary[]> => (await callApi((api) => api.GET("/imports", { params: { query: { limit: 20 } } }))).data,
    enabled,
    staleTime: 0,
  });
}

/** A finished import's report (rejected rows, photos not stored), a page at a time; nothing is asked while it runs or when it has none. */
export function useImportIssues(report: Pick<Import, "id" | "status" | "issues"> | undefined) {
  const finished = report?.status === "done" || report?.status === "failed";
  return useInfiniteQuery({
    queryKey: [...STAFF_IMPORTS_QUERY_KEY, report?.id, "issues"] as const,
    queryFn: async ({ pageParam, signal }): Promise<{ issues: ImportIssue[]; next: string | undefined }> => {
      const res = await callApi((api) =>
        api.GET("/imports/{importId}/issues", {
          params: { path: { importId: report!.id }, query: { limit: ISSUES_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) } },
          signal,
        }),
      );
      return { issues: res.data, next: linkCursor(res.headers.get("link"), "next") };
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next,
    enabled: finished && (report?.issues ?? 0) > 0,
    staleTime: Infinity,
  });
}

/** An import with its mapping (the newest generic one's is the mapping step's starting point). */
export async function fetchImport(id: number): Promise<Import> {
  return (await callApi((api) => api.GET("/imports/{importId}", { params: { path: { importId: id } } }))).data;
}

/** The header row of a CSV file, as the mapping step shows it (quoted cells, a BOM, any line ending). */
export async function headerOf(file: File): Promise<string[]> {
  const text = (await file.slice(0, 64 * 1024).text()).replace(/^\uFEFF/, "");
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      cells.push(cell.trim());
      cell = "";
    } else if (ch === "\n" || ch === "\r") break;
    else cell += ch;
  }
  cells.push(cell.trim());
  return cells.filter(Boolean);
}
