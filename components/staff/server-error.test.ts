import { describe, expect, it, vi } from "vitest";
import type { FormProblem } from "@/components/staff/form-alert";
import { showServerError } from "@/components/staff/server-error";
import { ApiClientError } from "@/lib/site/api-error";

type Values = { name: string; plan: string };

function run(error: unknown, options: { failed?: string; session?: false | { expired?: string; anyForbidden?: boolean } } = {}) {
  const problems: FormProblem[] = [];
  const setError = vi.fn();
  showServerError<Values>(error, {
    setProblem: (p) => problems.push(p),
    fields: { codes: ["invalid_body"], of: (details) => details.filter((d) => d.field === "name").map((d) => ({ field: "name", message: d.issue })), setError },
    failed: "The key was not issued",
    ...options,
  });
  return { problems, setError };
}

describe("showServerError", () => {
  it("puts a refusal of the form's own fields on them, the first focused, and says nothing else", () => {
    const { problems, setError } = run(new ApiClientError(400, "invalid_body", "Invalid body.", [{ field: "name", issue: "is required" }]));
    expect(setError).toHaveBeenCalledWith("name", { type: "server", message: "is required" }, { shouldFocus: true });
    expect(problems).toEqual([]);
  });

  it("says the API's sentence after what did not happen when no field of the form is named", () => {
    const { problems, setError } = run(new ApiClientError(400, "invalid_body", "Invalid body.", [{ field: "other", issue: "is wrong" }]));
    expect(setError).not.toHaveBeenCalled();
    expect(problems).toEqual([{ message: "The key was not issued. Invalid body." }]);
  });

  it("offers to sign in again when the session is gone or not staff's", () => {
    expect(run(new ApiClientError(401, "unauthorized", "Sign in.")).problems).toEqual([
      { message: "The key was not issued: your session has expired.", signIn: true },
    ]);
    expect(run(new ApiClientError(403, "forbidden", "Staff only.")).problems).toEqual([{ message: "The key was not issued: Staff only.", signIn: true }]);
    expect(run(new ApiClientError(403, "scope_missing", "No scope.")).problems).toEqual([{ message: "The key was not issued. No scope." }]);
    expect(run(new ApiClientError(403, "scope_missing", "No scope."), { session: { anyForbidden: true } }).problems).toEqual([
      { message: "The key was not issued: No scope.", signIn: true },
    ]);
    expect(run(new ApiClientError(401, "unauthorized", "Wrong password."), { failed: undefined, session: false }).problems).toEqual([
      { message: "Wrong password." },
    ]);
  });

  it("words a failure that is not the API's for people", () => {
    expect(run(new TypeError("boom")).problems).toEqual([{ message: "The key was not issued. Something went wrong. Please try again." }]);
  });
});
