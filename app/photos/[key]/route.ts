import { servePhotoFile } from "@/lib/photos/serve";

// GET /photos/{key} - a photo file: public (an <img> carries no API key), immutable, cached for a year
export async function GET(request: Request, ctx: { params: Promise<{ key: string }> }): Promise<Response> {
  return servePhotoFile(request, (await ctx.params).key);
}
