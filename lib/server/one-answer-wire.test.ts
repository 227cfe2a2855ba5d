import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerClientError, checkRequest, sendRefusal, trackAnswer } from "@/lib/server/gate";

// Every request that arrives gets its own answer, and only that answer, even
// when bytes the parser cannot read follow it on the connection. The case a
// fuzz run found: Node's own HTTP client sends the body of a DELETE (or
// OPTIONS) without Content-Length unless told to, so the server sees a
// request without a body followed by stray bytes. Those bytes are a parse
// error ('clientError'); answering it with a 400 written behind the 404 that
// already said `Connection: close` made the client reject the connection
// ("Data after `Connection: close`", HPE_CLOSED_CONNECTION) and report no
// answer at all; behind an answer still being made (Next is asynchronous),
// the 400 went out first and took that request's place.
// The server here is wired as scripts/server.ts is: the gate, then a handler
// that answers a few milliseconds later, as Next does.

let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    trackAnswer(req, res);
    const refusal = checkRequest(req);
    if (refusal) return sendRefusal(req, res, refusal);
    setTimeout(() => res.writeHead(200, { "Content-Type": "application/json" }).end('{"answered":true}'), 15);
  });
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Writes `bytes` in one go on a fresh connection; resolves with all the server sent before it closed (or after `idleMs` of silence). */
function exchange(bytes: string, idleMs = 300): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let idle: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(idle);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString("latin1"));
    };
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      clearTimeout(idle);
      idle = setTimeout(done, idleMs);
    });
    socket.on("end", done);
    socket.on("error", reject);
    socket.once("connect", () => socket.write(bytes));
  });
}

const statusLines = (answer: string) => answer.match(/HTTP\/1\.1 \d{3} [^\r]*/g) ?? [];
const json = '{"name":"Fuzzy","categoryId":1,"status":"available"}';
/** A request without Content-Length, its body right behind it: how Node's client sends a DELETE body it was not told the length of. */
const unframed = (method: string, path: string, connection: "close" | "keep-alive") =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer pk_test_x\r\nContent-Type: application/json\r\nConnection: ${connection}\r\n\r\n${json}`;

describe("a request followed by bytes that are not HTTP", () => {
  it("a refused request asking to close gets its 404 alone, then the close", async () => {
    const answer = await exchange(unframed("DELETE", "/v1/pets/", "close"));
    expect(statusLines(answer)).toEqual(["HTTP/1.1 404 Not Found"]);
    expect(answer).toContain('"code":"not_found"');
  });

  it("a refused request on a kept-alive connection gets its 404 alone, and the connection then closes", async () => {
    const answer = await exchange(unframed("DELETE", "/v1/pets/", "keep-alive"));
    expect(statusLines(answer)).toEqual(["HTTP/1.1 404 Not Found"]);
  });

  it("a request the app answers later gets that answer, not a 400 for the bytes behind it", async () => {
    for (const connection of ["close", "keep-alive"] as const) {
      const answer = await exchange(unframed("DELETE", "/v1/pets/12", connection));
      expect(statusLines(answer), connection).toEqual(["HTTP/1.1 200 OK"]);
      expect(answer).toContain('{"answered":true}');
    }
  });

  it("bytes that are not HTTP with no request before them still get the JSON 400", async () => {
    const answer = await exchange("GET /v1/pets HTTP/1.1\r\nno colon here\r\n\r\n");
    expect(statusLines(answer)).toEqual(["HTTP/1.1 400 Bad Request"]);
    expect(answer).toContain('"code":"invalid_request"');
  });
});

describe("Node's own client, DELETE bodies without Content-Length, four at a time on fresh connections", () => {
  it("every one of 400 gets its answer", async () => {
    const paths: [string, number][] = [
      ["/v1/pets/", 404],
      ["/v1/pets/12", 200],
      ["/v1//pets", 400],
      ["/v1/pets/1/", 404],
    ];
    const send = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const body = Buffer.from(json.slice(0, 20 + Math.floor(Math.random() * 33)));
        const req = http.request(
          { host: "127.0.0.1", port, method: "DELETE", path, agent: false, headers: { "content-type": "application/json", authorization: "Bearer pk_test_x" } },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode!));
            res.on("error", reject);
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    const lost: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < 400) {
        const [path, expected] = paths[next++ % paths.length]!;
        await send(path).then(
          (status) => status !== expected && lost.push(`${path}: ${status} instead of ${expected}`),
          (error: NodeJS.ErrnoException) => lost.push(`${path}: ${error.code} ${error.message}`),
        );
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    expect(lost).toEqual([]);
  });
});
