export function SandboxMailboxPage() {
  return <main className="p-10">SandboxMailboxPage</main>;
}
