export function SandboxPortalPage() {
  return <main className="p-10">SandboxPortalPage</main>;
}
