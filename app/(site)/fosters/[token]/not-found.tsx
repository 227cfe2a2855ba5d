import { FosterLinkProblem } from "@/components/fosters/foster-link-problem";

// A foster link that names nothing (mistyped, cut short, or replaced by a newer one).
export default function FosterNotFound() {
  return <FosterLinkProblem kind="notFound" />;
}
