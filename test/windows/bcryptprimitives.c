/*
 * Stand-in for Windows' bcryptprimitives.dll, for the Wine lane only. Debian 12's
 * Wine 8.0 lacks the DLL, and Bun's Windows runtime imports exactly one function
 * from it. This mirrors the built-in Wine added later (RtlGenRandom in chunks).
 * Built by test/windows/lane.sh with Debian's mingw; never shipped.
 */
#include <windows.h>
#include <ntsecapi.h> /* RtlGenRandom == advapi32!SystemFunction036 */

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  while (len > 0) {
    ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
    if (!RtlGenRandom(data, chunk)) return FALSE;
    data += chunk;
    len -= chunk;
  }
  return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE h, DWORD reason, LPVOID reserved) {
  (void)h;
  (void)reason;
  (void)reserved;
  return TRUE;
}
