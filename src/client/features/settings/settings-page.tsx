export function SettingsPage() {
  return <main className="p-10">SettingsPage</main>;
}
