import type { GetServerSideProps } from "next";
import Head from "next/head";
import { GET as getSession } from "@/app/v1/session/route";
import { ApiReference, type ReferenceDocument } from "@/components/docs/api-reference";
import { SiteNav } from "@/components/site-nav";
import english from "@/messages/en.json";
import { clientOriginOf } from "@/lib/core/client";
import { openApiDocument } from "@/lib/openapi/document";
import { callApi, nodeHeaders } from "@/lib/site/call-api";
import { manyShelters } from "@/lib/site/shelter-count";
import { staffScopeOf, type StaffScope } from "@/lib/site/staff-scope";
import type { SessionInfo } from "@/lib/staff/schemas";

// GET /docs - the API reference. A reference needs no script, so this one
// page is served by the Pages Router with its runtime JavaScript turned
// off: the App Router always ships React and its router (about 130 kB).
export const config = { runtime: "nodejs", unstable_runtimeJS: false };

interface Props {
  doc: ReferenceDocument;
  staff: StaffScope | false;
  shelters: boolean;
}

export const getServerSideProps: GetServerSideProps<Props> = async ({ req }) => {
  const incoming = nodeHeaders(req.headers);
  // The production server's address follows the origin the reader used (PUBLIC_BASE_URL when set).
  const doc = JSON.parse(JSON.stringify(openApiDocument(clientOriginOf(incoming, "http://localhost")))) as ReferenceDocument;
  const session = await callApi<SessionInfo>(incoming, getSession, "/v1/session").catch(() => null);
  const [staff, shelters] = await Promise.all([staffScopeOf(incoming, session?.status === 200 ? session.body : null), manyShelters(incoming)]);
  return { props: { doc, staff, shelters } };
};

export default function DocsPage({ doc, staff, shelters }: Props) {
  const title = "API reference · Petstore";
  return (
    <>
      <Head>
        <title>{title}</title>
        <meta name="description" content="The Petstore API: list, add, change and look up animals for adoption." />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
      </Head>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-emerald-900 focus:shadow"
      >
        Skip to content
      </a>
      <header className="border-b border-stone-200 bg-white">
        {/* Staff sign out from the staff pages: this page has no script to do it with. */}
        <SiteNav pathname="/docs" staff={staff} shelters={shelters} labels={english.Nav} />
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6">
        <ApiReference doc={doc} />
      </main>
    </>
  );
}
