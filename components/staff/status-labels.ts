import type { PetStatus } from "@/lib/pets/schemas";

export const STATUS_LABELS: Record<PetStatus, string> = { available: "Available", pending: "Pending", sold: "Sold" };
