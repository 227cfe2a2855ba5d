import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createPetRoute } from "@/app/v1/pets/route";
import { POST as uploadPhotoRoute } from "@/app/v1/pets/[petId]/photos/route";
import { db } from "@/lib/db";
import { metrics } from "@/lib/metrics";
import { observeRequest } from "@/lib/server/metrics";
import { captureLogLines } from "@/tests/log-capture";
import { newKey, seedPets, type RouteHandler } from "./helpers";
import { until } from "@/tests/wait";

// A client that hangs up halfway through its request's body (a phone losing
// its signal, a load generator dropping its connections) is no failure of
// ours and no dependency's: a real socket sends half a body and resets, and
// the request is logged and counted as nginx does, 499 "client closed
// request", never as a 503 "dependency unavailable" nor a warning.
// The server is wired as scripts/server.ts wires it (every request observed
// for the metrics), and hands the handler the request as Next does: the
// Node request itself as the body, its response's closing as the signal.

const log = captureLogLines();

const ROUTES: [RegExp, RouteHandler, (m: RegExpExecArray) => Record<string, string>][] = [
  [/^\/v1\/pets$/, createPetRoute, () => ({})],
  [/^\/v1\/pets\/(\d+)\/photos$/, uploadPhotoRoute, (m) => ({ petId: m[1]! })],
];

let server: http.Server;
let port: number;
let key: string;

beforeAll(async () => {
  ({ key } = await newKey(["pets:read", "pets:write"]));
  server = http.createServer((req, res) => {
    observeRequest(req, res);
    const route = ROUTES.map(([pattern, handler, params]) => ({ m: pattern.exec(req.url!), handler, params })).find((r) => r.m);
    if (!route) return void res.writeHead(404).end();
    const controller = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    void (async () => {
      const init: RequestInit & { duplex: "half" } = {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: req as unknown as BodyInit,
        duplex: "half",
        signal: controller.signal,
      };
      const response = await route.handler(new Request(`http://127.0.0.1:${port}${req.url}`, init), { params: Promise.resolve(route.params(route.m!)) });
      if (res.destroyed) return;
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends the head and the first half of a body of `length` bytes, then resets the connection (RST, not a FIN). */
function sendHalfAndReset(path: string, headers: Record<string, string>, half: string | Buffer, length: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      const head = [
        `POST ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        `Authorization: Bearer ${key}`,
        `Content-Length: ${length}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        "",
        "",
      ].join("\r\n");
      socket.write(head);
      socket.write(half, () => setTimeout(() => (socket.resetAndDestroy(), resolve()), 100));
    });
    socket.on("error", reject);
  });
}

const count = async (route: string, status: string) =>
  (await metrics().httpRequests.get()).values
    .filter((v) => v.labels.route === route && v.labels.method === "POST" && v.labels.status === status)
    .reduce((sum, v) => sum + v.value, 0);

/** The parsed log lines written from `from` on, once the request's own "request" line is there. */
async function linesOf(from: number, path: string): Promise<Record<string, unknown>[]> {
  return until(
    `the request line for ${path}`,
    () => {
      const lines = log.since(from).map((l) => JSON.parse(l) as Record<string, unknown>);
      return lines.some((l) => l.msg === "request" && l.path === path) ? lines : null;
    },
    10_000,
  );
}

describe("a client that resets its connection halfway through the body", () => {
  it("POST /v1/pets: logged and counted as 499 client closed request, never a 503 or a dependency warning; nothing is created", async () => {
    const pets = await db().pet.count();
    const [aborted, unavailable] = [await count("/v1/pets", "499"), await count("/v1/pets", "503")];
    const from = log.lines.length;
    const body = JSON.stringify({ name: "Halfway", categoryId: 1, description: "x".repeat(2_000) });
    await sendHalfAndReset("/v1/pets", { "Content-Type": "application/json" }, body.slice(0, 1_000), body.length);
    const lines = await linesOf(from, "/v1/pets");
    const request = lines.find((l) => l.msg === "request")!;
    expect(request.status).toBe(499);
    const closed = lines.find((l) => l.msg === "client closed request");
    expect(closed).toMatchObject({ level: 30, method: "POST", path: "/v1/pets", requestId: request.requestId });
    expect(lines.filter((l) => l.msg === "dependency unavailable" || l.msg === "request failed")).toEqual([]);
    expect(lines.filter((l) => (l.level as number) >= 40)).toEqual([]);
    expect(await count("/v1/pets", "499")).toBe(aborted + 1);
    expect(await count("/v1/pets", "503")).toBe(unavailable);
    expect(await db().pet.count()).toBe(pets);
  });

  it("a photo upload (the image as the body, or a form): 499 as well, not a 503 nor a 400", async () => {
    const [pet] = await seedPets([{}]);
    const route = "/v1/pets/{petId}/photos";
    const path = `/v1/pets/${pet!.id}/photos`;
    for (const [type, half] of [
      ["image/jpeg", Buffer.alloc(4_000, 0xff)],
      [
        "multipart/form-data; boundary=b0undary",
        `--b0undary\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n${"y".repeat(3_000)}`,
      ],
    ] as const) {
      const aborted = await count(route, "499");
      const from = log.lines.length;
      await sendHalfAndReset(path, { "Content-Type": type }, half, 20_000);
      const lines = await linesOf(from, path);
      expect(lines.find((l) => l.msg === "request")!.status, type).toBe(499);
      expect(
        lines.filter((l) => (l.level as number) >= 40),
        type,
      ).toEqual([]);
      expect(await count(route, "499"), type).toBe(aborted + 1);
    }
    expect(await db().petPhoto.count({ where: { petId: BigInt(pet!.id) } })).toBe(0);
  });
});
