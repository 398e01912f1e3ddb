import { testIds } from './testIds';

/** The page. A placeholder until the panels land. */
export function App() {
  return (
    <main data-testid={testIds.app}>
      <h1 data-testid={testIds.appHeading}>Delivery Lab</h1>
      <p data-testid={testIds.appPlaceholder}>
        A simulated pipeline (producer → broker → processor → sink) to see at-most-once,
        at-least-once and exactly-once delivery at work. The simulator is on its way.
      </p>
    </main>
  );
}
