// "Use my location": what of the browser's position leaves the browser.
// Rounded to hundredths of a degree (about 1 km north-south, less east-west)
// before it goes into the URL: enough to sort shelters by distance, not
// enough to point at a home, and the URL may be shared, bookmarked, logged
// by a proxy or kept in the history.

const round = (degrees: number) => {
  const rounded = Math.round(degrees * 100) / 100;
  // Never "-0.00".
  return (rounded === 0 ? 0 : rounded).toFixed(2);
};

/** `near` for a position: "41.88,-87.62". */
export function nearOfPosition({ latitude, longitude }: { latitude: number; longitude: number }): string {
  return `${round(latitude)},${round(longitude)}`;
}
