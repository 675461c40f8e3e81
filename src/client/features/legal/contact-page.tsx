export function ContactPage() {
  return <main className="p-10">ContactPage</main>;
}
