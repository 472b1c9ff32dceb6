import { useEffect, useState } from 'react';

/** Seconds left before another code may be asked for (the server allows one a minute). */
export function useCodeCountdown() {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (seconds <= 0) return;
    const timer = window.setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [seconds]);
  return { seconds, start: (from = 60) => setSeconds(from) };
}
