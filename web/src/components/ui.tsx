import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export function ErrorNote(props: { error?: string; title?: string }) {
  if (!props.error) return null;
  return (
    <div class="note note-error" role="alert">
      <strong>{props.title ?? 'Docent could not answer'}</strong>
      <span>{props.error}</span>
    </div>
  );
}

export function Spinner(props: { label?: string }) {
  return <span class="spinner" role="status" aria-label={props.label ?? 'Loading'} />;
}

export function CopyButton(props: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="btn btn-small"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(props.text);
        } catch {
          // Clipboard refused (insecure origin): select the text for a manual copy instead.
          const sel = getSelection();
          const el = document.querySelector(`[data-copy-source="${CSS.escape(props.text.slice(0, 40))}"]`);
          if (sel && el) sel.selectAllChildren(el);
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      {copied ? 'Copied' : (props.label ?? 'Copy')}
    </button>
  );
}

export function Code(props: { text: string; label?: string }) {
  return (
    <div class="code">
      <pre data-copy-source={props.text.slice(0, 40)}>
        <code>{props.text}</code>
      </pre>
      <CopyButton text={props.text} label={props.label} />
    </div>
  );
}

export function Panel(props: { title: ComponentChildren; actions?: ComponentChildren; children: ComponentChildren; class?: string; id?: string }) {
  return (
    <section class={`panel ${props.class ?? ''}`} aria-labelledby={props.id ? `${props.id}-title` : undefined} id={props.id}>
      <header class="panel-head">
        <h2 id={props.id ? `${props.id}-title` : undefined}>{props.title}</h2>
        {props.actions ? <div class="panel-actions">{props.actions}</div> : null}
      </header>
      {props.children}
    </section>
  );
}

export function Empty(props: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{props.title}</p>
      {props.children}
    </div>
  );
}

export function StatusPill(props: { status: string }) {
  return <span class={`pill pill-${props.status}`}>{props.status}</span>;
}
