/* host.c — a small C program that embeds the keel kernel, built only through
 * `pkg-config keel` against lib/libkeel.a and kernel/keel.h. */
#include <keel.h>
#include <stdio.h>

int main(void) {
  int passed = 0, failed = 0;
  keel_hex a, b;
  if (keel_hex_from_qr(3, -7, &a) == KEEL_OK && keel_hex_from_qr(0, 0, &b) == KEEL_OK &&
      keel_hex_distance(a, b) == 7) passed++; else failed++;
  if (keel_status_str(KEEL_E_NOT_ADJACENT)[0] != '\0') passed++; else failed++;
  printf("host: keel %s\n%d passed, %d failed\n", keel_version(), passed, failed);
  return failed ? 1 : 0;
}
