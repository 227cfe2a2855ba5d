import { describe, expect, it } from "vitest";
import { routeTemplate } from "@/lib/server/route-template";

// Metrics are labelled with the route as the OpenAPI document writes it,
// never with anything a client chose (ids, tokens, garbage).

describe("routeTemplate", () => {
  it.each([
    ["/v1/pets", "/v1/pets"],
    ["/v1/pets?status=available&limit=5", "/v1/pets"],
    ["/v1/pets/12", "/v1/pets/{petId}"],
    ["/v1/pets/12/history", "/v1/pets/{petId}/history"],
    ["/v1/pets/12/photos", "/v1/pets/{petId}/photos"],
    ["/v1/pets/12/photos/7", "/v1/pets/{petId}/photos/{photoId}"],
    ["/v1/pets/12/applications", "/v1/pets/{petId}/applications"],
    ["/v1/applications/3/transitions", "/v1/applications/{applicationId}/transitions"],
    ["/v1/application-links/Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg", "/v1/application-links/{token}"],
    ["/v1/application-links/Zm9vYmFy/withdraw", "/v1/application-links/{token}/withdraw"],
    ["/v1/keys/4/ban", "/v1/keys/{keyId}/ban"],
    ["/v1/alerts", "/v1/alerts"],
    ["/v1/alerts/Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg", "/v1/alerts/{token}"],
    ["/v1/alerts/Zm9vYmFy/confirm", "/v1/alerts/{token}/confirm"],
    ["/v1/alerts/Zm9vYmFy/unsubscribe", "/v1/alerts/{token}/unsubscribe"],
    ["/v1/openapi.json", "/v1/openapi.json"],
    ["/v1/events?after=evt_3", "/v1/events"],
    ["/v1/dashboard", "/v1/dashboard"],
    ["http://example.com/v1/pets/5", "/v1/pets/{petId}"],
  ])("%s is %s", (path, template) => {
    expect(routeTemplate(path)).toBe(template);
  });

  it("never lets a client's choice through", () => {
    for (const path of ["/v1/nope", "/v1/pets/1/2/3/4", "/v1/%00", "/v1/pets/", "/v1//pets"]) expect(routeTemplate(path)).toBe("/v1/{unmatched}");
    for (const path of ["/wp-login.php", "/pets", "/.env"]) expect(routeTemplate(path)).toBe("{other}");
    expect(routeTemplate("/_next/static/chunks/abc.js")).toBe("/_next/{asset}");
  });

  it("names the pages and files outside /v1", () => {
    expect(routeTemplate("/")).toBe("/");
    expect(routeTemplate("/pets/42?from=home")).toBe("/pets/{id}");
    expect(routeTemplate("/applications/secret-token")).toBe("/applications/{token}");
    expect(routeTemplate("/alerts/secret-token")).toBe("/alerts/{token}");
    expect(routeTemplate("/photos/abc.webp")).toBe("/photos/{file}");
    expect(routeTemplate("/metrics")).toBe("/metrics");
  });
});
