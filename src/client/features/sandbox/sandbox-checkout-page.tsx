export function SandboxCheckoutPage() {
  return <main className="p-10">SandboxCheckoutPage</main>;
}
