export function GuidesPage() {
  return <main className="p-10">GuidesPage</main>;
}
