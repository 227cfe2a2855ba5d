-- Issue 50 (docs/decisions/028): a placement is a change of the animal,
-- written through its one write path (lib/pets/placements.ts) with the
-- animal's version bump and its audit record. The record says which kind of
-- change it was and keeps the placements the change wrote (an ended one
-- first, then the one it started: a move writes both; an outcome writes the
-- one it ended as `stayEnded`), each with its person's id only, never a
-- name or contact.
--
-- The change feed announces these records as every other change, from the
-- record at commit: the new actions fall in pet_audit_announce's ELSE
-- branch (`pet.updated`, shown to everyone as `pet.updated` while the animal
-- is listed), and the trigger copies nothing of `placements` into the event.
-- New enum values are not used in this migration (PostgreSQL forbids using
-- them in the transaction that adds them).

ALTER TYPE "AuditAction" ADD VALUE 'placement_started';
ALTER TYPE "AuditAction" ADD VALUE 'placement_ended';
ALTER TYPE "AuditAction" ADD VALUE 'placement_corrected';

ALTER TABLE "pet_audit" ADD COLUMN "placements" JSONB;
