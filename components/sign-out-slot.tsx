"use client";

import { lazy, Suspense } from "react";

// The sign-out button is for signed-in staff only, and the header is
// rendered on the server: adopters (every visitor of `/`, whose JavaScript
// budget is 150 kB) never download its code, and staff fetch it when their
// header hydrates. The server renders the real button, so nothing moves.
const SignOutButton = lazy(() => import("@/components/sign-out-button").then((m) => ({ default: m.SignOutButton })));

export function SignOutSlot() {
  return (
    // No fallback: the server renders the button, and hydration keeps it in place until its code arrives.
    <Suspense>
      <SignOutButton />
    </Suspense>
  );
}
