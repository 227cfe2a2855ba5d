-- The staff dashboard counts intakes (an animal's creation) and adoptions (a
-- change of status to sold) per week from the audit trail. This index holds
-- only those records, by time, so that twelve weeks of them are read without
-- scanning every change ever recorded. The condition is written exactly as
-- lib/dashboard/queries.ts writes it, so that the planner can use the index.
CREATE INDEX "pet_audit_flow_idx" ON "pet_audit" ("created_at")
    WHERE ("action" = 'created' OR ("action" = 'updated' AND "after" ->> 'status' = 'sold' AND "before" ? 'status'));
