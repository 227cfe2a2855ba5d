/**
 * What both callers share: the server they call, the key, the photo and the
 * receiver, from the environment the spec runs them with; and the record of
 * the operations called, printed as JSON at the end (the spec compares it
 * with every operation of the document).
 */
import fs from "node:fs";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

export const api = required("PETSTORE_API");
/** An organisation's key: its animals, applications and webhooks. */
export const key = required("PETSTORE_KEY");
/** A platform key with organizations:manage: only the platform adds organisations. */
export const platformKey = required("PETSTORE_PLATFORM_KEY");
export const receiver = required("RECEIVER_URL");
export const photo = () => new Blob([fs.readFileSync(required("PHOTO_FILE"))], { type: "image/png" });
export const unique = `${process.pid}-${Date.now()}`;
/** The calendar day `days` from today (UTC), YYYY-MM-DD: two days back is before today in every time zone. */
export const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const PETFINDER_HEADER =
  "ID,Internal,AnimalName,PrimaryBreed,SecondaryBreed,Sex,Size,Age,Desc,Type,Status,Shots,Altered,NoDogs,NoCats,NoKids,Housetrained,Declawed,specialNeeds,Mix,photo1,photo2,photo3,photo4,photo5,photo6,arrival_date,birth_date,primaryColor,secondaryColor,tertiaryColor,coat_length,adoption_fee,display_adoption_fee,adoption_fee_waived,special_needs_notes,no_other,no_other_note,tags";
/** A one-animal Petfinder file, for the import operations (sent as a dry run: the suite's data stays as it is). */
export const listingFile = () =>
  new Blob(
    [`${PETFINDER_HEADER}\n${[`client-${unique}`, "", "Imported", "", "", "F", "M", "Adult", "", "Dog", "A", ...Array<string>(28).fill("")].join(",")}\n`],
    { type: "text/csv" },
  );

const called: string[] = [];

/** Runs one operation; any error (an answer that is not 2xx, a request or answer the validator refuses) ends the run. */
export async function step<T>(operationId: string, run: () => Promise<T>): Promise<T> {
  try {
    const result = await run();
    called.push(operationId);
    return result;
  } catch (error) {
    throw new Error(`${operationId} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`, { cause: error });
  }
}

/** Waits for what the server does on its own (a webhook delivery made by the job queue): `pick` finds it in what `read` answers. */
export async function eventually<R, T>(what: string, read: () => Promise<R>, pick: (answer: R) => T | undefined, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const answer = await read();
    const value = pick(answer);
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last answer: ${JSON.stringify(answer).slice(0, 1000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export function report(): void {
  console.log(JSON.stringify({ called }));
}
