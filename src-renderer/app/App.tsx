// The application shell: brand, a sidebar of stores and the main content area.
// For now it shows only the embedded local store and an empty state.

export function App() {
  return (
    <div className="shell" data-testid="app-shell">
      <aside className="sidebar" data-testid="sidebar">
        <div className="brand" data-testid="app-name">
          Coffer
        </div>
        <nav aria-label="Stores">
          <ul className="store-list">
            <li>
              <button
                type="button"
                className="store-entry"
                aria-current="page"
                data-testid="store-local"
              >
                <span className="store-dot" aria-hidden="true" />
                Local store
              </button>
            </li>
          </ul>
        </nav>
      </aside>
      <main className="content" data-testid="main-area">
        <header className="content-header">
          <h1>Local store</h1>
        </header>
        <section className="empty-state" data-testid="empty-state">
          <h2>No containers yet</h2>
          <p>Containers you create in the local store will appear here.</p>
        </section>
      </main>
    </div>
  );
}
