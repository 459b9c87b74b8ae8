import { useEffect, useState } from 'preact/hooks';

// The colour theme is a preference, not a secret: localStorage is fine for it.
export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'docent.theme';
const media = matchMedia('(prefers-color-scheme: dark)');

function choice(): ThemeChoice {
  const v = localStorage.getItem(KEY);
  return v === 'light' || v === 'dark' ? v : 'system';
}

export function resolvedTheme(c = choice()): 'light' | 'dark' {
  return c === 'system' ? (media.matches ? 'dark' : 'light') : c;
}

export function applyTheme(): void {
  document.documentElement.dataset.theme = resolvedTheme();
}

export function useTheme(): { theme: 'light' | 'dark'; toggle: () => void } {
  const [theme, setTheme] = useState(resolvedTheme());
  useEffect(() => {
    const update = () => {
      applyTheme();
      setTheme(resolvedTheme());
    };
    media.addEventListener('change', update);
    addEventListener('docent-theme', update);
    return () => {
      media.removeEventListener('change', update);
      removeEventListener('docent-theme', update);
    };
  }, []);
  return {
    theme,
    toggle() {
      const next = resolvedTheme() === 'dark' ? 'light' : 'dark';
      // Back to "follow the system" when the choice equals what the system asks for.
      if (next === (media.matches ? 'dark' : 'light')) localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, next);
      dispatchEvent(new Event('docent-theme'));
    },
  };
}
