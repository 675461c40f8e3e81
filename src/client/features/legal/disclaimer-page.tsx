export function DisclaimerPage() {
  return <main className="p-10">DisclaimerPage</main>;
}
