import fs from 'node:fs';
import path from 'node:path';

/**
 * Finds an executable by name on PATH (like `which`), or checks an explicit path. Returns the
 * absolute path or null. On Windows, PATHEXT extensions are tried. Never throws.
 */
export function findExecutable(name: string, envPath: string | undefined = process.env.PATH): string | null {
  const exts = process.platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  const isExecutable = (file: string) => {
    try {
      const st = fs.statSync(file);
      if (!st.isFile()) return false;
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (name.includes('/') || name.includes('\\')) {
    const abs = path.resolve(name);
    return isExecutable(abs) ? abs : null;
  }
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return null;
}
