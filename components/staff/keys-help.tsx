import { PLAN_NAMES } from "@/components/staff/plan-names";
import { panelClass } from "@/components/staff/styles";
import { LIVE_KEYS_PER_ORGANIZATION, ORGANIZATION_PLANS, PLANS, PLAN_LIMITS } from "@/lib/keys/plans";

const count = (n: number) => n.toLocaleString("en-US");

/** Beside the form until a key is issued: how partners use a key, and what each plan allows (the plans this staff member can issue). */
export function KeysHelp({ platformAdmin = false }: { platformAdmin?: boolean }) {
  return (
    <section aria-labelledby="keys-help-heading" className={`${panelClass} space-y-3 text-sm text-stone-800`}>
      <h2 id="keys-help-heading" className="text-lg font-semibold text-stone-900">
        How keys work
      </h2>
      <p>
        Partners send the key with every request as <code className="font-mono">Authorization: Bearer &lt;key&gt;</code>. It is shown once, when it is issued;
        afterwards only its first and last characters are.
      </p>
      <ul className="space-y-1">
        {(platformAdmin ? PLANS : ORGANIZATION_PLANS).map((plan) => (
          <li key={plan}>
            <strong>{PLAN_NAMES[plan]}</strong>:{" "}
            {plan === "enterprise"
              ? "the limits you set for the key"
              : `${count(PLAN_LIMITS[plan].perMinute)} requests a minute, ${count(PLAN_LIMITS[plan].perDay)} a day`}
          </li>
        ))}
      </ul>
      {platformAdmin ? null : (
        <p>
          Your organisation can hold up to {LIVE_KEYS_PER_ORGANIZATION} keys that are not revoked. Higher limits (the Enterprise plan) are set by the people who
          run the service.
        </p>
      )}
      <p>A key that keeps sending while it is limited is banned for 15 minutes; you can lift the ban here.</p>
    </section>
  );
}
