"use client";

import { callApi } from "@/lib/site/api-client-core";
import type { components } from "@/lib/site/openapi-types";

// The alert calls of the site, through the typed client (the contract's
// createAlert, and the private link's getAlert, confirmAlert, patchAlert,
// deleteAlert): a renamed field breaks the build, not the page.

export type AlertView = components["schemas"]["Alert"];
export type NewAlertBody = components["schemas"]["NewAlert"];

const path = (token: string) => ({ params: { path: { token } } });

export const createAlert = (body: NewAlertBody) => callApi((api) => api.POST("/alerts", { body }));
export const getAlert = (token: string) => callApi((api) => api.GET("/alerts/{token}", path(token)));
export const confirmAlert = (token: string) => callApi((api) => api.POST("/alerts/{token}/confirm", path(token)));
export const pauseAlert = (token: string, paused: boolean) => callApi((api) => api.PATCH("/alerts/{token}", { ...path(token), body: { paused } }));
export const deleteAlert = (token: string) => callApi((api) => api.DELETE("/alerts/{token}", path(token)));
