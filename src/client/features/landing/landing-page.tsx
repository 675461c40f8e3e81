export function LandingPage() {
  return <main className="p-10">LandingPage</main>;
}
export function EuLandingPage() {
  return <main className="p-10">EuLandingPage</main>;
}
