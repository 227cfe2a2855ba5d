import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { resetEnvCache } from "@/lib/env";
import { newApiKeySchema } from "@/lib/keys/schemas";
import { createApiKey } from "@/lib/keys/service";
import { decryptSecret, encryptSecret, generateSecret, tryDecryptSecret } from "@/lib/core/secrets";
import { resealStaleSecrets } from "@/lib/webhooks/service";

// Signing secrets are stored encrypted under a key derived from
// SESSION_SECRET: a copy of the table alone reveals none, and a rotation of
// SESSION_SECRET (with SESSION_SECRET_PREVIOUS) re-encrypts them.

const OLD = "an-old-session-secret-of-at-least-32-chars";
const NEW = "a-new-session-secret-of-at-least-32-characters";

function appSecrets(current: string, previous?: string) {
  vi.stubEnv("SESSION_SECRET", current);
  vi.stubEnv("SESSION_SECRET_PREVIOUS", previous ?? "");
  resetEnvCache();
}

afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvCache();
});

describe("webhook secrets at rest", () => {
  it("whsec_ + base64 of 32 random bytes, a new one each time", () => {
    const a = generateSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(generateSecret()).not.toBe(a);
  });

  it("stored sealed (AES-256-GCM, a fresh IV each time), opened only with the app secret", () => {
    appSecrets(OLD);
    const secret = generateSecret();
    const sealed = encryptSecret(secret);
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(secret.slice(6));
    expect(encryptSecret(secret)).not.toBe(sealed);
    expect(decryptSecret(sealed)).toEqual({ secret, stale: false });
    // Tampered: refused, not mis-decrypted.
    // (One character changed for certain: a fixed replacement would leave the
    // body as it was whenever it already ended that way, once in 4,096 runs.)
    const [v, iv, body, tag] = sealed.split(".");
    const tampered = `${body!.slice(0, -2)}${body!.slice(-2, -1) === "A" ? "B" : "A"}${body!.slice(-1)}`;
    expect(tampered).not.toBe(body);
    expect(() => decryptSecret([v, iv, tampered, tag].join("."))).toThrow();
    appSecrets(NEW);
    expect(() => decryptSecret(sealed)).toThrow(/neither/);
    expect(tryDecryptSecret(sealed)).toBeNull();
  });

  it("work without SESSION_SECRET (a local setup, the embedded default): sealed under the install's own secret, as listing-site passwords are", () => {
    vi.stubEnv("SESSION_SECRET", "");
    vi.stubEnv("SESSION_SECRET_PREVIOUS", "");
    resetEnvCache();
    const cwd = process.cwd();
    const install = fs.mkdtempSync(path.join(os.tmpdir(), "petstore-install-"));
    process.chdir(install);
    try {
      const secret = generateSecret();
      const sealed = encryptSecret(secret);
      expect(sealed).not.toContain(secret.slice(6));
      expect(decryptSecret(sealed)).toEqual({ secret, stale: false });
      expect(fs.existsSync(path.join(install, ".data", "session-secret"))).toBe(true);
    } finally {
      process.chdir(cwd);
    }
  });

  it("after a SESSION_SECRET rotation the old ones still open (stale), and resealing moves them to the new one", async () => {
    appSecrets(OLD);
    const secret = generateSecret();
    const { summary } = await createApiKey(newApiKeySchema.parse({ name: "sealed", scopes: ["webhooks:manage"] }), 1n);
    const endpoint = await db().webhookEndpoint.create({
      data: { apiKeyId: BigInt(summary.id), url: "https://partner.example/hook", events: ["pet.created"], secret: encryptSecret(secret), startAfter: 0n },
    });

    appSecrets(NEW, OLD);
    expect(decryptSecret((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).secret)).toEqual({ secret, stale: true });
    expect(await resealStaleSecrets()).toBe(1);
    expect(await resealStaleSecrets()).toBe(0);

    // Without the old app secret now, it still opens.
    appSecrets(NEW);
    expect(decryptSecret((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).secret)).toEqual({ secret, stale: false });
  });
});
