export function StrategiesPage() {
  return <main className="p-10">StrategiesPage</main>;
}
