export function PremiumAccessRequiredPage() {
  return <main className="p-10">PremiumAccessRequiredPage</main>;
}
