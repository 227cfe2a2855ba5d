import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCARD_MAX_BYTES, checkRequest, sendRefusal } from "@/lib/server/gate";

// A refused request that carries a body must still get its answer. The
// server decides before it has read the body; had it then closed the
// connection with the body unread (or still arriving), the kernel would
// answer those bytes with a reset, which can destroy the answer before the
// client has read it (a fuzz run saw 5 of 3,000 such requests get no answer).
// So the body is read and discarded first, within a size and time limit.
// Here on the wire, as bots send them: each on a fresh connection, the body a
// moment after the headers, many at once.

let server: http.Server;
let port: number;

beforeAll(async () => {
  // The same refusal path as scripts/server.ts; anything it passes is a plain 204.
  server = http.createServer((req, res) => {
    const refusal = checkRequest(req);
    if (refusal) sendRefusal(req, res, refusal);
    else res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface Exchange {
  head: string;
  body?: Buffer;
  /** Wait this long after the headers before sending the body, as a slow client or a busy one does. */
  bodyAfterMs?: number;
  /** Read nothing for this long after sending (a client busy elsewhere). */
  readAfterMs?: number;
}

/** One request on its own connection; resolves with everything the server sent before closing, or rejects on a reset. */
function exchange({ head, body, bodyAfterMs = 0, readAfterMs = 0 }: Exchange): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // onread: with it, pause() stops reading from the kernel itself, so the
    // answer waits there, unread, as it does for a client busy elsewhere.
    const socket = net.connect({
      port,
      host: "127.0.0.1",
      onread: { buffer: Buffer.alloc(64 * 1024), callback: (n: number, buffer: Uint8Array) => chunks.push(Buffer.from(buffer.subarray(0, n))) > 0 },
    });
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.on("error", reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer in 10 s")));
    socket.once("connect", () => {
      // Reading is paused until the client is "done": what the server sent waits in the kernel, as it does for a busy client.
      socket.pause();
      socket.write(head);
      setTimeout(() => {
        if (body) socket.write(body);
        setTimeout(() => socket.resume(), readAfterMs);
      }, bodyAfterMs);
    });
  });
}

const jsonBody = Buffer.from(JSON.stringify({ name: "Fuzzy", categoryId: 1, status: "available" })); // 52 bytes
const headOf = (method: string, path: string, length: number) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

/** Sends the headers, then the body only after `bodyAfterMs`; says whether any answer came before the body went. */
function answeredBeforeBody(head: string, body: Buffer, bodyAfterMs: number): Promise<{ early: boolean; answer: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let bodySent = false;
    let early = false;
    socket.on("data", (chunk) => {
      if (!bodySent) early = true;
      chunks.push(chunk);
    });
    socket.on("end", () => resolve({ early, answer: Buffer.concat(chunks).toString("latin1") }));
    socket.on("error", reject);
    socket.once("connect", () => {
      socket.write(head);
      setTimeout(() => {
        bodySent = true;
        socket.write(body);
      }, bodyAfterMs);
    });
  });
}

describe("refused requests with a body get their whole answer", () => {
  it("the body is read before the answer and the close: a trailing-slash DELETE with a 52-byte JSON body", async () => {
    expect(jsonBody.length).toBe(52);
    const { early, answer } = await answeredBeforeBody(headOf("DELETE", "/v1/pets/", jsonBody.length), jsonBody, 150);
    expect(early).toBe(false);
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer).toContain('"code":"not_found"');
    expect(answer.toLowerCase()).toContain("connection: close");
  });

  it("the answer read late, after a body sent late, still arrives whole", async () => {
    const answer = await exchange({ head: headOf("DELETE", "/v1/pets/", jsonBody.length), body: jsonBody, bodyAfterMs: 30, readAfterMs: 30 });
    expect(answer).toMatch(/^HTTP\/1\.1 404 [\s\S]*\r\n\r\n\{"code":"not_found"/);
  });

  it("two hundred, fifty at a time, each on a fresh connection, across the refusals (404, 400, 405, a page's 413): none is lost", async () => {
    const cases: Exchange[] = [
      { head: headOf("DELETE", "/v1/pets/", 52), body: jsonBody },
      { head: headOf("POST", "/v1//pets", 52), body: jsonBody },
      { head: headOf("PROPFIND", "/v1/pets", 52), body: jsonBody },
      { head: headOf("POST", "/", 20_000), body: Buffer.alloc(20_000, 0x20) },
    ];
    const lost: string[] = [];
    for (let batch = 0; batch < 4; batch++) {
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) => exchange({ ...cases[i % cases.length]!, bodyAfterMs: i % 3 === 0 ? 0 : 20, readAfterMs: 20 })),
      );
      for (const [i, r] of results.entries()) {
        if (r.status === "rejected") lost.push(`#${batch}.${i}: ${String(r.reason)}`);
        else if (!/^HTTP\/1\.1 4\d\d [\s\S]*\r\n\r\n./.test(r.value)) lost.push(`#${batch}.${i}: ${r.value.slice(0, 80)}`);
      }
    }
    expect(lost).toEqual([]);
  });

  it("a body that never comes is waited for only up to the time limit", async () => {
    const answer = await exchange({ head: headOf("DELETE", "/v1/pets/", 52) });
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
  });

  it("a body declared larger than the limit is not read at all: the answer comes at once", async () => {
    const { early, answer } = await answeredBeforeBody(headOf("POST", "/", DISCARD_MAX_BYTES + 1), Buffer.alloc(16), 150);
    expect(early).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });
});
