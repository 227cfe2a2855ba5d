import { panelClass } from "@/components/staff/styles";
import type { WaitingFor } from "@/lib/dashboard/schemas";

// "What adopters are waiting for": the most common filters of adopters'
// confirmed alerts, with how many people and how many available animals
// match now. Counts only (the API never gives an address). A plain table:
// screen readers read each row with its column names.

export function WaitingForSection({ waitingFor }: { waitingFor: WaitingFor[] }) {
  return (
    <section aria-labelledby="dashboard-waiting-for" className={`${panelClass} space-y-2`}>
      <h2 id="dashboard-waiting-for" className="text-lg font-semibold">
        What adopters are waiting for
      </h2>
      <p className="text-sm text-stone-700">
        The searches adopters asked to be emailed about (&ldquo;Email me new matches&rdquo;) that at least three people share, most people first, with the
        animals that match them now. Where adopters are and the names they search for are never shown.
      </p>
      {waitingFor.length === 0 ? (
        <p>No search that at least three adopters share has an alert here yet.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-stone-300">
              <th scope="col" className="py-2 pr-3 font-semibold">
                Search
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-semibold">
                People waiting
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Available now
              </th>
            </tr>
          </thead>
          <tbody>
            {waitingFor.map((w) => (
              <tr key={w.description + w.people} className="border-b border-stone-200 last:border-0">
                <th scope="row" className="py-2 pr-3 font-normal">
                  {w.description}
                </th>
                <td className="py-2 pr-3 text-right tabular-nums">{w.people}</td>
                <td className="py-2 text-right tabular-nums">{w.availableNow}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
