export function DiscordPage() {
  return <main className="p-10">DiscordPage</main>;
}
