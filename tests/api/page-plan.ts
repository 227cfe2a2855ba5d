import { query } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { pageSql } from "@/lib/pets/queries/pages";

// The list's page statement run under EXPLAIN (ANALYZE, BUFFERS): its work in
// shared buffers, which unlike time does not depend on how busy the machine
// is, and the indexes its plan used.

interface PlanNode {
  "Index Name"?: string;
  "Shared Hit Blocks": number;
  "Shared Read Blocks": number;
  Plans?: PlanNode[];
}

/** The page statement's plan for a page of 21, run: the indexes it used and the shared buffers it touched. */
export async function pagePlan(q: Omit<Parameters<typeof pageSql>[0], "take">): Promise<{ indexes: string[]; buffers: number }> {
  const [row] = await query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(Prisma.sql`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${pageSql({ take: 21, ...q })}`);
  const indexes: string[] = [];
  const walk = (node: PlanNode) => {
    if (node["Index Name"]) indexes.push(node["Index Name"]);
    for (const child of node.Plans ?? []) walk(child);
  };
  const plan = row!["QUERY PLAN"][0].Plan;
  walk(plan);
  return { indexes, buffers: plan["Shared Hit Blocks"] + plan["Shared Read Blocks"] };
}
