"use client";

import { ApiClientError, networkError, type ApiResponse } from "@/lib/site/api-client-core";
import type { ErrorBody } from "@/lib/http/errors";
import type { AlertFiltersInput } from "@/components/alerts/alert-filters";

// The alert calls of the site (POST /v1/alerts, and the private link's
// /v1/alerts/{token} operations), as the shared contract spells them.

export interface AlertView {
  status: "unconfirmed" | "active" | "paused";
  frequency: "hourly" | "daily";
  timeZone: string;
  filters: AlertFiltersInput;
  description: string;
  emailHint?: string;
  createdAt: string;
  confirmedAt: string | null;
}

export interface NewAlertBody {
  email: string;
  frequency: "hourly" | "daily";
  timeZone: string;
  filters: AlertFiltersInput;
  consent: true;
  website?: string;
}

async function send<T>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
  let res: Response;
  try {
    res = await fetch(`/v1${path}`, {
      method,
      credentials: "same-origin",
      headers: { Accept: "application/json", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw networkError();
  }
  const data: unknown = res.status === 204 ? undefined : await res.json().catch(() => undefined);
  if (!res.ok) {
    const error = (typeof data === "object" && data !== null ? data : {}) as Partial<ErrorBody>;
    const retry = res.headers.get("retry-after");
    throw new ApiClientError(res.status, error.code ?? "unknown_error", error.message ?? `The server answered ${res.status}.`, error.details ?? [], retry && /^\d+$/.test(retry) ? Number(retry) : undefined);
  }
  return { data: data as T, headers: res.headers, status: res.status };
}

const at = (token: string) => `/alerts/${encodeURIComponent(token)}`;

export const createAlert = (body: NewAlertBody) => send<{ status: "confirmation_sent"; message: string }>("POST", "/alerts", body);
export const getAlert = (token: string) => send<AlertView>("GET", at(token));
export const confirmAlert = (token: string) => send<AlertView>("POST", `${at(token)}/confirm`);
export const pauseAlert = (token: string, paused: boolean) => send<AlertView>("PATCH", at(token), { paused });
export const deleteAlert = (token: string) => send<void>("DELETE", at(token));
