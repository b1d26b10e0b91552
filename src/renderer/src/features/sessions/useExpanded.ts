import { useCallback, useState } from 'react';

/** Expansion choices by key; rows of the virtualized transcript unmount when scrolled away, this keeps what the user opened. */
const remembered = new Map<string, boolean>();

/** An expand/collapse toggle that survives the row being unmounted (`null` = not chosen yet, use the default). */
export function useExpanded(key: string): [boolean | null, (open: boolean) => void] {
  const [open, setOpenState] = useState<boolean | null>(() => remembered.get(key) ?? null);
  const setOpen = useCallback(
    (value: boolean) => {
      remembered.set(key, value);
      setOpenState(value);
    },
    [key],
  );
  return [open, setOpen];
}
