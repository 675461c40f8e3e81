export function PrivacyPage() {
  return <main className="p-10">PrivacyPage</main>;
}
