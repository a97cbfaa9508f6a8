// SPDX-License-Identifier: GPL-2.0
/* capctl rights NAMES|HEX: both directions through the one parser. */
#include "commands.h"
#include "fmt.h"
#include "json.h"

#include <capsicum/rights_names.h>
#include <inttypes.h>
#include <stdio.h>

int cmd_rights(const struct capctl_args *a)
{
	cap_rights_t r;
	char names[4096];
	struct json j;

	if (capsicum_rights_parse(a->rights, &r)) {
		fprintf(stderr,
			"capctl: rights: cannot parse '%s' (names like "
			"read,seek or CAP_READ, or 0x hex words)\n",
			a->rights);
		return CAPCTL_EXIT_USAGE;
	}
	rights_display(&r, names, sizeof(names));
	if (!a->json) {
		printf("0x%016" PRIx64 " 0x%016" PRIx64 " %s\n", r.cr_rights[0],
		       r.cr_rights[1], names);
		return CAPCTL_EXIT_OK;
	}
	json_init(&j, stdout);
	json_begin_object(&j);
	json_key(&j, "rights");
	json_begin_array(&j);
	json_hex(&j, r.cr_rights[0]);
	json_hex(&j, r.cr_rights[1]);
	json_end_array(&j);
	json_kv_string(&j, "names", names);
	json_end_object(&j);
	return CAPCTL_EXIT_OK;
}
