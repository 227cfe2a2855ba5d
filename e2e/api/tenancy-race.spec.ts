import net from "node:net";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { bearer, cli, createKey, createPet } from "../helpers";

// Issue 32's report, replayed against the running server over a raw socket:
// the first organisation's key sends the head of PATCH /v1/pets/{next id}
// and holds the body back; another organisation creates that animal; then
// the body goes. The server must have answered 404 at once, from the head
// alone, and the other organisation's animal must be as it was created.

/** Sends a request's head on its own connection; resolves with the status line of the answer and a way to send the body after. */
function sendHead(url: URL, head: string): Promise<{ statusLine: string; sendBody: (body: string) => void; close: () => void }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    socket.on("error", reject);
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      if (!received.includes("\r\n\r\n")) return;
      socket.removeAllListeners("data");
      // Writing after the server closed its side may fail: that is fine, the answer is in.
      socket.removeAllListeners("error");
      socket.on("error", () => {});
      resolve({
        statusLine: received.slice(0, received.indexOf("\r\n")),
        sendBody: (body) => void (socket.writable && socket.write(body)),
        close: () => socket.destroy(),
      });
    });
    socket.write(head);
  });
}

let mine: string;
let theirs: string;

test.beforeAll(() => {
  // Three CLI runs: a minute or more on a machine busy with other builds.
  test.setTimeout(180_000);
  mine = createKey("e2e race home", "--org", "1", "--scopes", "pets:read,pets:write");
  // Far from Chicago: the near-search tests list the shelters around it.
  const slug = `race-rescue-${Date.now().toString(36)}`;
  const created = cli("orgs", "create", "--name", "Race Rescue", "--slug", slug, "--city", "Juneau", "--region", "AK", "--postcode", "99801");
  expect(created.status, created.stderr).toBe(0);
  theirs = createKey("e2e race other", "--org", slug, "--scopes", "pets:read,pets:write");
});

test("a PATCH held open until another organisation creates the animal is refused from its head, and changes nothing", async ({ request, baseURL }) => {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  const { rows } = await db.query<{ n: string }>("SELECT COALESCE(pg_sequence_last_value(pg_get_serial_sequence('pets', 'id')), 0) + 1 AS n");
  await db.end();
  const next = Number(rows[0]!.n);

  const body = JSON.stringify({ name: "Taken by A" });
  const url = new URL(baseURL!);
  const held = await sendHead(
    url,
    [
      `PATCH /v1/pets/${next} HTTP/1.1`,
      `Host: ${url.host}`,
      `Authorization: Bearer ${mine}`,
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Connection: close",
      "",
      "",
    ].join("\r\n"),
  );
  // The answer came from the head alone: nothing named that animal yet.
  expect(held.statusLine).toBe("HTTP/1.1 404 Not Found");

  expect((await createPet(request, theirs, { name: "Their own" })).id).toBe(next);

  held.sendBody(body);
  held.close();

  const now = await request.get(`/v1/pets?id=${next}`, { headers: bearer(theirs) });
  expect(await now.json()).toEqual([expect.objectContaining({ id: next, name: "Their own", version: 1 })]);
});
