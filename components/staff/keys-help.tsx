import { PLAN_NAMES } from "@/components/staff/plan-names";
import { panelClass } from "@/components/staff/styles";
import { PLANS, PLAN_LIMITS } from "@/lib/keys/plans";

const count = (n: number) => n.toLocaleString("en-US");

/** Beside the form until a key is issued: how partners use a key, and what each plan allows. */
export function KeysHelp() {
  return (
    <section aria-labelledby="keys-help-heading" className={`${panelClass} space-y-3 text-sm text-stone-800`}>
      <h2 id="keys-help-heading" className="text-lg font-semibold text-stone-900">
        How keys work
      </h2>
      <p>
        Partners send the key with every request as <code className="font-mono">Authorization: Bearer &lt;key&gt;</code>. It is shown once, when it
        is issued; afterwards only its first and last characters are.
      </p>
      <ul className="space-y-1">
        {PLANS.map((plan) => (
          <li key={plan}>
            <strong>{PLAN_NAMES[plan]}</strong>:{" "}
            {plan === "enterprise"
              ? "the limits you set for the key"
              : `${count(PLAN_LIMITS[plan].perMinute)} requests a minute, ${count(PLAN_LIMITS[plan].perDay)} a day`}
          </li>
        ))}
      </ul>
      <p>A key that keeps sending while it is limited is banned for 15 minutes; you can lift the ban here.</p>
    </section>
  );
}
