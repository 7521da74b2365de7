import { useEffect, useId, useState } from 'react';
import { Icon } from '../../app/icons';
import { strings } from '../../app/strings';
import { useNavigation } from '../../stores/navigation';
import { returnFocus } from '../common/focus';

const DEBOUNCE_MS = 250;

/**
 * A name-prefix filter: what is typed becomes part of the listing's prefix (the server lists only
 * matching names), not a filter over the rows already loaded.
 */
export function FilterBox() {
  const filter = useNavigation((s) => s.filter);
  const setFilter = useNavigation((s) => s.setFilter);
  const [text, setText] = useState(filter);
  const id = useId();
  // Navigating elsewhere clears the filter: follow it.
  useEffect(() => setText(filter), [filter]);
  // Typing schedules a new listing. A filter changed elsewhere (navigating clears it) is followed
  // above, and the text then equals it again: nothing is scheduled, and what was is cleared.
  useEffect(() => {
    if (text === filter) return;
    const t = setTimeout(() => setFilter(text), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text, filter, setFilter]);
  return (
    <div className="filter">
      <label htmlFor={id} className="visually-hidden">
        {strings.browser.filterLabel}
      </label>
      <Icon name="search" size={14} />
      <input
        id={id}
        type="search"
        value={text}
        placeholder={strings.browser.filterPlaceholder}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') setFilter(text);
          // Down from the filter goes to what it found, as in a search box with results below.
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setFilter(text);
            returnFocus();
          }
        }}
        spellCheck={false}
        autoComplete="off"
      />
    </div>
  );
}
