// Placeholder replaced by the adopters' browser.
export default function Home() {
  return <h1 className="text-2xl font-bold">Petstore</h1>;
}
