// Every available animal, page by page: follow the Link header's rel="next" as it is.
export async function listAvailableAnimals(baseUrl: string, apiKey: string) {
  const animals: { id: number; name: string; categoryId: number; status: string; version: number }[] = [];
  let url: string | undefined = `${baseUrl}/pets?status=available&limit=100`;
  while (url) {
    const res: Response = await fetch(url, { headers: { Authorization: `Bearer ${apiKey}` } });
    if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${(await res.json()).code}`);
    animals.push(...(await res.json()));
    url = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
  }
  return animals;
}
