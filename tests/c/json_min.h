/*
 * json_min.h — a minimal JSON reader for test vectors (tests only).
 * Parses a whole document into a tree; json_get(obj, "key"), json_at(arr, i).
 */
#ifndef KEEL_JSON_MIN_H
#define KEEL_JSON_MIN_H
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } json_kind;
typedef struct json {
  json_kind kind;
  double num;
  char *str;              /* J_STR value */
  char *key;              /* the key, for a member of an object */
  struct json *items;     /* J_ARR/J_OBJ children */
  size_t n;
} json;

static const char *json_p;

static void json_ws(void) { while (*json_p && isspace((unsigned char)*json_p)) json_p++; }

static int json_parse_value(json *out);

static char *json_parse_string(void) {
  if (*json_p != '"') return NULL;
  json_p++;
  const char *start = json_p;
  while (*json_p && *json_p != '"') { if (*json_p == '\\') json_p++; json_p++; }
  size_t len = (size_t)(json_p - start);
  char *s = malloc(len + 1);
  memcpy(s, start, len);
  s[len] = 0;
  if (*json_p == '"') json_p++;
  return s;
}

static int json_parse_list(json *out, char close, int keyed) {
  size_t cap = 8;
  out->items = calloc(cap, sizeof(json));
  out->n = 0;
  json_p++;
  json_ws();
  if (*json_p == close) { json_p++; return 1; }
  for (;;) {
    if (out->n == cap) { cap *= 2; out->items = realloc(out->items, cap * sizeof(json)); }
    json *item = &out->items[out->n];
    memset(item, 0, sizeof *item);
    char *key = NULL;
    json_ws();
    if (keyed) {
      key = json_parse_string();
      if (!key) return 0;
      json_ws();
      if (*json_p++ != ':') return 0;
    }
    if (!json_parse_value(item)) return 0;
    item->key = key;
    out->n++;
    json_ws();
    if (*json_p == ',') { json_p++; continue; }
    if (*json_p == close) { json_p++; return 1; }
    return 0;
  }
}

static int json_parse_value(json *out) {
  json_ws();
  memset(out, 0, sizeof *out);
  char c = *json_p;
  if (c == '{') { out->kind = J_OBJ; return json_parse_list(out, '}', 1); }
  if (c == '[') { out->kind = J_ARR; return json_parse_list(out, ']', 0); }
  if (c == '"') { out->kind = J_STR; out->str = json_parse_string(); return out->str != NULL; }
  if (!strncmp(json_p, "true", 4)) { out->kind = J_BOOL; out->num = 1; json_p += 4; return 1; }
  if (!strncmp(json_p, "false", 5)) { out->kind = J_BOOL; json_p += 5; return 1; }
  if (!strncmp(json_p, "null", 4)) { out->kind = J_NULL; json_p += 4; return 1; }
  char *end;
  out->kind = J_NUM;
  out->num = strtod(json_p, &end);
  if (end == json_p) return 0;
  json_p = end;
  return 1;
}

/* Member `key` of an object (strings come back as J_STR). */
static const json *json_get(const json *o, const char *key) {
  if (!o || o->kind != J_OBJ) return NULL;
  for (size_t i = 0; i < o->n; i++)
    if (o->items[i].key && !strcmp(o->items[i].key, key)) return &o->items[i];
  return NULL;
}
static const json *json_at(const json *a, size_t i) {
  return (a && (a->kind == J_ARR) && i < a->n) ? &a->items[i] : NULL;
}
static double json_num(const json *j) { return j ? j->num : 0; }

static json *json_load_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)len + 1);
  size_t got = fread(buf, 1, (size_t)len, f);
  buf[got] = 0;
  fclose(f);
  json *root = calloc(1, sizeof *root);
  json_p = buf;
  int ok = json_parse_value(root);
  free(buf);
  return ok ? root : NULL;
}

static void json_free_inner(json *j) {
  if (!j) return;
  for (size_t i = 0; i < j->n; i++) json_free_inner(&j->items[i]);
  free(j->items);
  free(j->str);
  free(j->key);
}
static void json_free(json *j) { json_free_inner(j); free(j); }
#endif
