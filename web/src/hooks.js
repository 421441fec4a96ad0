import { useEffect, useState } from "preact/hooks";

/** Current value of a signal (signal.js); the component re-renders when it changes. */
export function useSignal(sig) {
  const [value, setValue] = useState(sig.get());
  useEffect(() => sig.subscribe(setValue), [sig]);
  return value;
}

/** Window width and height, updated on resize (the board scales to fit). */
export function useViewport() {
  const read = () => [window.innerWidth, window.innerHeight];
  const [size, setSize] = useState(read());
  useEffect(() => {
    const onResize = () => setSize(read());
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);
  return size;
}
