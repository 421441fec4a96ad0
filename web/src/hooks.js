import { useEffect, useLayoutEffect, useState } from "preact/hooks";
import { serverNow } from "./time.js";

/** Current value of a signal (signal.js); the component re-renders when it changes. */
export function useSignal(sig) {
  const [value, setValue] = useState(sig.get());
  useEffect(() => {
    // A change between the first render and this subscription would be missed: read it again here.
    setValue(sig.get());
    return sig.subscribe(setValue);
  }, [sig]);
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

/**
 * The server's time (time.js's estimate), read again every `every` ms while `ticking`, so that
 * a running clock counts down on the page.
 */
export function useServerNow(ticking, every = 250) {
  const [now, setNow] = useState(serverNow());
  useEffect(() => {
    setNow(serverNow());
    if (!ticking) return undefined;
    const timer = setInterval(() => setNow(serverNow()), every);
    return () => clearInterval(timer);
  }, [ticking, every]);
  return now;
}

/**
 * Places the pop-up `list` (position: fixed) under its `button` while `open`, kept on the screen: its left edge at
 * the button's (`align` "left") or its right edge at the button's ("right"), 8 px from the screen's edges at least.
 * Placed again when `deps` change (its contents, so its width).
 */
export function usePlacedUnder(open, button, list, align = "left", deps = []) {
  useLayoutEffect(() => {
    const el = list.current;
    if (!open || !el || !button.current) return;
    const at = button.current.getBoundingClientRect();
    const margin = 8;
    const wanted = align === "right" ? at.right - el.offsetWidth : at.left;
    el.style.top = `${Math.round(at.bottom + 4)}px`;
    el.style.left = `${Math.round(Math.max(margin, Math.min(wanted, window.innerWidth - el.offsetWidth - margin)))}px`;
  }, [open, ...deps]);
}
