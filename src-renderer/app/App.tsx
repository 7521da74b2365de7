// The application shell: connections in the sidebar, the selected one in the main area, a status
// bar, and the one modal dialog that may be open.
import { useServerEvents } from '../queries/use-server-events';
import { Tooltips } from '../features/common/Tooltips';
import { Dialogs } from '../features/containers/Dialogs';
import { MainArea } from '../features/shell/MainArea';
import { Sidebar } from '../features/shell/Sidebar';
import { StatusBar } from '../features/shell/StatusBar';
import { useUrlLocation } from './url-location';

export function App() {
  useServerEvents();
  useUrlLocation();
  return (
    <div className="shell" data-testid="app-shell">
      <Sidebar />
      <MainArea />
      <StatusBar />
      <Dialogs />
      <Tooltips />
    </div>
  );
}
