export function TermsPage() {
  return <main className="p-10">TermsPage</main>;
}
