/*
 * The Wine lane's probe: a console program that reports, as one JSON line on
 * stdout, the command line it received (GetCommandLineW, exactly), its length
 * in UTF-16 units, and its argv as the C runtime split it (what a Node or Rust
 * CLI sees). Every non-ASCII unit is written as \uXXXX, so the line is plain
 * ASCII whatever the console code page. Built by test/windows/lane.sh with mingw.
 */
#include <windows.h>
#include <stdio.h>
#include <fcntl.h>
#include <io.h>

static void put_json_string(const wchar_t *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned c = (unsigned)*s;
    if (c == '"' || c == '\\') printf("\\%c", (char)c);
    else if (c >= 0x20 && c < 0x7f) putchar((char)c);
    else printf("\\u%04x", c);
  }
  putchar('"');
}

int wmain(int argc, wchar_t **argv) {
  const wchar_t *line = GetCommandLineW();
  _setmode(_fileno(stdout), _O_BINARY);
  printf("{\"probe\":\"rawargs\",\"length\":%d,\"commandLine\":", (int)lstrlenW(line));
  put_json_string(line);
  printf(",\"argv\":[");
  for (int i = 1; i < argc; i++) {
    if (i > 1) putchar(',');
    put_json_string(argv[i]);
  }
  printf("]}\n");
  fflush(stdout);
  return 0;
}
