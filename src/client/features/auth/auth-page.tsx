export function AuthPage() {
  return <main className="p-10">AuthPage</main>;
}
