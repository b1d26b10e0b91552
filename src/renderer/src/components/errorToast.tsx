import { toast, type ExternalToast } from 'sonner';
import { MessageMarkdown } from '../features/sessions/Markdown';

/**
 * An error toast whose message and description render as Markdown: engine messages put commands,
 * paths and flags in backticks (`atrium serve --port`) and those must read as code, not as stray
 * punctuation. Links in it go through the same confirmation as agent text. Returns the toast id.
 */
export function errorToast(message: string, options?: Omit<ExternalToast, 'description'> & { description?: string }): string | number {
  const { description, ...rest } = options ?? {};
  return toast.error(
    <div className="toast-md" data-testid="error-toast">
      <MessageMarkdown text={message} />
    </div>,
    { ...rest, description: description ? <MessageMarkdown text={description} /> : undefined },
  );
}
